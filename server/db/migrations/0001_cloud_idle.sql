CREATE TABLE "cloud_idle_statuses" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"games" jsonb NOT NULL,
	"cards_remaining" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cloud_idle_statuses" ADD CONSTRAINT "cloud_idle_statuses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;