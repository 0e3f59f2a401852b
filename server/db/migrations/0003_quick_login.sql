CREATE TABLE "device_authorizations" (
	"device_code_hash" text PRIMARY KEY NOT NULL,
	"user_code" text NOT NULL,
	"device_id" text NOT NULL,
	"device" text NOT NULL,
	"ip" text NOT NULL,
	"place" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"user_id" integer,
	"last_polled_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_authorizations_user_code_unique" UNIQUE("user_code")
);
--> statement-breakpoint
CREATE TABLE "external_logins" (
	"state" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"key_hash" text NOT NULL,
	"caller_key" text NOT NULL,
	"bind_user_id" integer,
	"is_web" boolean NOT NULL,
	"device_id" text NOT NULL,
	"device" text NOT NULL,
	"locale" text NOT NULL,
	"verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "external_logins_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "external_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"display_name" text NOT NULL,
	"user_id" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "openid_nonces" (
	"endpoint" text NOT NULL,
	"nonce" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "openid_nonces_endpoint_nonce_pk" PRIMARY KEY("endpoint","nonce")
);
--> statement-breakpoint
ALTER TABLE "device_authorizations" ADD CONSTRAINT "device_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_logins" ADD CONSTRAINT "external_logins_bind_user_id_users_id_fk" FOREIGN KEY ("bind_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_tickets" ADD CONSTRAINT "external_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;