CREATE TABLE "proof_of_work_solutions" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "actor_user_id" integer;--> statement-breakpoint
ALTER TABLE "console_factors" ADD COLUMN "failed_tries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "console_factors" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "proof_of_work_solutions_expiry" ON "proof_of_work_solutions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "refunds_actor" ON "refunds" USING btree ("actor_user_id","created_at");