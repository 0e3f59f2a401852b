CREATE TABLE "agreements" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"user_id" integer NOT NULL,
	"product" text NOT NULL,
	"plan" integer NOT NULL,
	"months" integer NOT NULL,
	"price" integer NOT NULL,
	"locale" text NOT NULL,
	"state" text NOT NULL,
	"contract_id" text,
	"next_charge_at" timestamp with time zone,
	"reminded_for" timestamp with time zone,
	"failed_charges" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "agreements_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "agreement" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "renewal_plan" integer;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agreements_one_live" ON "agreements" USING btree ("user_id") WHERE state in ('pending', 'active');--> statement-breakpoint
CREATE INDEX "agreements_due" ON "agreements" USING btree ("next_charge_at") WHERE state = 'active';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_agreement_agreements_key_fk" FOREIGN KEY ("agreement") REFERENCES "public"."agreements"("key") ON DELETE set null ON UPDATE no action;