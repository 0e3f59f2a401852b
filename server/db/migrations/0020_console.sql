CREATE TABLE "code_sends" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "code_sends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"provider" text NOT NULL,
	"refusal" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"title_type" text NOT NULL,
	"title" text NOT NULL,
	"tax_number" text,
	"email" text NOT NULL,
	"locale" text NOT NULL,
	"state" text NOT NULL,
	"refusal_reason" text,
	"file" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "audit_log_action";--> statement-breakpoint
ALTER TABLE "invoice_requests" ADD CONSTRAINT "invoice_requests_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_sends_created" ON "code_sends" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_requests_one_live" ON "invoice_requests" USING btree ("order_id") WHERE state in ('requested', 'issued');--> statement-breakpoint
CREATE INDEX "invoice_requests_order" ON "invoice_requests" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "invoice_requests_state" ON "invoice_requests" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "users_created" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_nickname" ON "users" USING btree ("nickname","id");--> statement-breakpoint
CREATE INDEX "users_phone_start" ON "users" USING btree ("phone" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_email_start" ON "users" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_nickname_start" ON "users" USING btree (lower("nickname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_created" ON "orders" USING btree ("created_at","state");--> statement-breakpoint
CREATE INDEX "orders_price" ON "orders" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "orders_state" ON "orders" USING btree ("state","id");--> statement-breakpoint
CREATE INDEX "orders_method" ON "orders" USING btree ("method","id");--> statement-breakpoint
CREATE INDEX "orders_state_method" ON "orders" USING btree ("state","method","id");--> statement-breakpoint
CREATE INDEX "payments_at" ON "payments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "refunds_created" ON "refunds" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "raffle_entries_created" ON "raffle_entries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_start" ON "audit_log" USING btree (lower("actor") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "audit_log_action" ON "audit_log" USING btree ("action","id");