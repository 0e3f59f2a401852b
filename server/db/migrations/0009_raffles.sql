CREATE TABLE "instant_draws" (
	"id" serial PRIMARY KEY NOT NULL,
	"seed_id" integer NOT NULL,
	"raffle_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"nonce" integer NOT NULL,
	"client_seed" text NOT NULL,
	"roll" integer NOT NULL,
	"won" boolean NOT NULL,
	"sold_out" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instant_seeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"raffle_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"seed" text NOT NULL,
	"seed_hash" text NOT NULL,
	"next_nonce" integer DEFAULT 0 NOT NULL,
	"revealed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "raffle_entries" (
	"raffle_id" integer NOT NULL,
	"number" integer NOT NULL,
	"user_id" integer,
	"prize" integer,
	"draw_order" integer,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "raffle_entries_raffle_id_number_pk" PRIMARY KEY("raffle_id","number")
);
--> statement-breakpoint
CREATE TABLE "raffles" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"cover" text,
	"prizes" jsonb NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"draw_at" timestamp with time zone,
	"min_account_age_days" integer DEFAULT 0 NOT NULL,
	"entrants" integer DEFAULT 0 NOT NULL,
	"seed" text,
	"seed_hash" text,
	"public_source" jsonb,
	"public_value" text,
	"drawn_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"odds" integer,
	"stock" integer,
	"per_user_limit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "raffles_stock_not_negative" CHECK ("raffles"."stock" >= 0)
);
--> statement-breakpoint
ALTER TABLE "instant_draws" ADD CONSTRAINT "instant_draws_seed_id_instant_seeds_id_fk" FOREIGN KEY ("seed_id") REFERENCES "public"."instant_seeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instant_seeds" ADD CONSTRAINT "instant_seeds_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instant_seeds" ADD CONSTRAINT "instant_seeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffle_entries" ADD CONSTRAINT "raffle_entries_raffle_id_raffles_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raffle_entries" ADD CONSTRAINT "raffle_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "instant_draws_nonce" ON "instant_draws" USING btree ("seed_id","nonce");--> statement-breakpoint
CREATE INDEX "instant_draws_user" ON "instant_draws" USING btree ("raffle_id","user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "instant_seeds_current" ON "instant_seeds" USING btree ("raffle_id","user_id") WHERE "instant_seeds"."revealed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "raffle_entries_user" ON "raffle_entries" USING btree ("raffle_id","user_id");--> statement-breakpoint
CREATE INDEX "raffle_entries_winners" ON "raffle_entries" USING btree ("raffle_id","draw_order") WHERE "raffle_entries"."draw_order" is not null;--> statement-breakpoint
CREATE INDEX "raffles_kind_opens" ON "raffles" USING btree ("kind","opens_at");