CREATE TABLE "evaluation_helpful" (
	"evaluation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evaluation_helpful_evaluation_id_user_id_pk" PRIMARY KEY("evaluation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "evaluation_reports" (
	"evaluation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "evaluation_reports_evaluation_id_user_id_pk" PRIMARY KEY("evaluation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "evaluation_writes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugin_evaluations" (
	"id" serial PRIMARY KEY NOT NULL,
	"plugin" text NOT NULL,
	"user_id" integer NOT NULL,
	"rating" integer NOT NULL,
	"body" text NOT NULL,
	"locale" text NOT NULL,
	"helpful" integer DEFAULT 0 NOT NULL,
	"hidden_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plugin_evaluations_rating" CHECK ("plugin_evaluations"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "plugin_ratings" (
	"plugin" text PRIMARY KEY NOT NULL,
	"stars" integer[] NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_status" (
	"key" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"note" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"state" text NOT NULL,
	"previous" text NOT NULL,
	"note" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "evaluation_helpful" ADD CONSTRAINT "evaluation_helpful_evaluation_id_plugin_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."plugin_evaluations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_helpful" ADD CONSTRAINT "evaluation_helpful_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_reports" ADD CONSTRAINT "evaluation_reports_evaluation_id_plugin_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."plugin_evaluations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_reports" ADD CONSTRAINT "evaluation_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_writes" ADD CONSTRAINT "evaluation_writes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plugin_evaluations" ADD CONSTRAINT "plugin_evaluations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evaluation_writes_user" ON "evaluation_writes" USING btree ("user_id","kind","at");--> statement-breakpoint
CREATE UNIQUE INDEX "plugin_evaluations_user" ON "plugin_evaluations" USING btree ("plugin","user_id");--> statement-breakpoint
CREATE INDEX "plugin_evaluations_newest" ON "plugin_evaluations" USING btree ("plugin","created_at");--> statement-breakpoint
CREATE INDEX "plugin_evaluations_helpful" ON "plugin_evaluations" USING btree ("plugin","helpful");--> statement-breakpoint
CREATE INDEX "status_incidents_at" ON "status_incidents" USING btree ("at");