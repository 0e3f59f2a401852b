CREATE TABLE "cdkey_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"grant" jsonb NOT NULL,
	"count" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cdkey_batches_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "cdkey_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cdkeys" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"index" integer NOT NULL,
	"hash" text NOT NULL,
	"masked" text NOT NULL,
	"used_by" integer,
	"used_at" timestamp with time zone,
	"order_key" text,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "cdkeys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
ALTER TABLE "cdkey_failures" ADD CONSTRAINT "cdkey_failures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cdkeys" ADD CONSTRAINT "cdkeys_batch_id_cdkey_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."cdkey_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cdkeys" ADD CONSTRAINT "cdkeys_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cdkey_failures_user" ON "cdkey_failures" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "cdkey_failures_ip" ON "cdkey_failures" USING btree ("ip","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cdkeys_batch_index" ON "cdkeys" USING btree ("batch_id","index");--> statement-breakpoint
CREATE INDEX "cdkeys_used_by" ON "cdkeys" USING btree ("used_by","used_at");