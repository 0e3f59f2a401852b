CREATE TABLE "donations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"amount" integer NOT NULL,
	"name" text,
	"hidden_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "donations" ADD CONSTRAINT "donations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donations_user" ON "donations" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "donations_named" ON "donations" USING btree ("id") WHERE "donations"."name" is not null and "donations"."hidden_at" is null and "donations"."user_id" is not null;