ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'zh-CN' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "raffle_messages" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "raffle_entries" ADD COLUMN "won_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "raffle_entries" ADD COLUMN "told_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "raffle_entries" ADD COLUMN "reminder_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "raffle_entries" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "raffle_entries_to_tell" ON "raffle_entries" USING btree ("raffle_id") WHERE "raffle_entries"."prize" is not null and "raffle_entries"."claimed_at" is null and "raffle_entries"."reminder_queued_at" is null;