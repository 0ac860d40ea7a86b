CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"cap" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reset_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reset_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reset_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"name" text PRIMARY KEY NOT NULL,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"readonly" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"slug_date" text NOT NULL,
	"template" boolean DEFAULT false NOT NULL,
	"title" text NOT NULL,
	"event_status" text DEFAULT 'pre' NOT NULL,
	"game_date" text,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"timezone" text NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"peak" integer DEFAULT 0 NOT NULL,
	"promo" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_slug_date_unique" UNIQUE("slug_date")
);
--> statement-breakpoint
CREATE TABLE "snapshot_changes" (
	"slug_date" text NOT NULL,
	"version" integer NOT NULL,
	"all_from" timestamp with time zone,
	"favorite_from" timestamp with time zone,
	"magicshot_from" timestamp with time zone,
	"shared_from" timestamp with time zone,
	"any_from" timestamp with time zone,
	CONSTRAINT "snapshot_changes_slug_date_version_pk" PRIMARY KEY("slug_date","version")
);
--> statement-breakpoint
CREATE TABLE "snapshot_counts" (
	"slug_date" text PRIMARY KEY NOT NULL,
	"all_count" integer DEFAULT 0 NOT NULL,
	"favorite_count" integer DEFAULT 0 NOT NULL,
	"magicshot_count" integer DEFAULT 0 NOT NULL,
	"shared_count" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"slug_date" text NOT NULL,
	"user_id" text NOT NULL,
	"camera" text NOT NULL,
	"seat_type" text DEFAULT 'section' NOT NULL,
	"section" text DEFAULT '' NOT NULL,
	"row" text DEFAULT '' NOT NULL,
	"seat" text DEFAULT '' NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"thumb_uri" text DEFAULT '' NOT NULL,
	"small_uri" text DEFAULT '' NOT NULL,
	"raw_cropped_uri" text DEFAULT '' NOT NULL,
	"shared_uri" text DEFAULT '' NOT NULL,
	"media_type" text DEFAULT 'image' NOT NULL,
	"favorite" boolean DEFAULT false NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"magicshot" boolean DEFAULT false NOT NULL,
	"overlay" text,
	"post_obj" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"shared_count" integer DEFAULT 0 NOT NULL,
	"share_sources" text[] DEFAULT '{}'::text[] NOT NULL,
	"faces" jsonb,
	"group_size" integer,
	"age_min" integer,
	"age_max" integer,
	"genders" text,
	"emotions" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"slug_date" text NOT NULL,
	"type" text NOT NULL,
	"addressed" boolean DEFAULT false NOT NULL,
	"user_id" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cameras" (
	"camera_key" text PRIMARY KEY NOT NULL,
	"host_id" text NOT NULL,
	"host_info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"configs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"camera_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_counts" (
	"slug_date" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"metric" text NOT NULL,
	"key" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "analytics_counts_slug_date_metric_key_bucket_pk" PRIMARY KEY("slug_date","metric","key","bucket")
);
--> statement-breakpoint
CREATE TABLE "event_users" (
	"slug_date" text NOT NULL,
	"user_id" text NOT NULL,
	"photos" integer NOT NULL,
	"shared_photos" integer NOT NULL,
	"first_date" timestamp with time zone NOT NULL,
	CONSTRAINT "event_users_slug_date_user_id_pk" PRIMARY KEY("slug_date","user_id")
);
--> statement-breakpoint
CREATE TABLE "page_view_counts" (
	"slug_date" text NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "page_view_counts_slug_date_dimension_key_day_pk" PRIMARY KEY("slug_date","dimension","key","day")
);
--> statement-breakpoint
CREATE TABLE "config_files" (
	"name" text PRIMARY KEY NOT NULL,
	"data" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"uploaded_by" text NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seat_maps" (
	"id" integer PRIMARY KEY NOT NULL,
	"model" jsonb NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reset_tokens" ADD CONSTRAINT "reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_slug_date_events_slug_date_fk" FOREIGN KEY ("slug_date") REFERENCES "public"."events"("slug_date") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_slug_date_events_slug_date_fk" FOREIGN KEY ("slug_date") REFERENCES "public"."events"("slug_date") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "reset_requests_key_at_idx" ON "reset_requests" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "reset_tokens_user_idx" ON "reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_lower_idx" ON "roles" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_idx" ON "users" USING btree ("username");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "events_game_date_idx" ON "events" USING btree ("game_date");--> statement-breakpoint
CREATE INDEX "events_status_idx" ON "events" USING btree ("event_status");--> statement-breakpoint
CREATE INDEX "snapshots_event_date_idx" ON "snapshots" USING btree ("slug_date","date","id");--> statement-breakpoint
CREATE INDEX "snapshots_album_idx" ON "snapshots" USING btree ("slug_date","date","id") WHERE "snapshots"."magicshot" = false;--> statement-breakpoint
CREATE INDEX "snapshots_favorites_idx" ON "snapshots" USING btree ("slug_date","date","id") WHERE "snapshots"."favorite" = true and "snapshots"."magicshot" = false;--> statement-breakpoint
CREATE INDEX "snapshots_shared_idx" ON "snapshots" USING btree ("slug_date","date","id") WHERE "snapshots"."shared_count" > 0 and "snapshots"."magicshot" = false;--> statement-breakpoint
CREATE INDEX "snapshots_magicshot_idx" ON "snapshots" USING btree ("slug_date","date","id") WHERE "snapshots"."magicshot" = true;--> statement-breakpoint
CREATE INDEX "snapshots_event_user_idx" ON "snapshots" USING btree ("slug_date","user_id","date","id");--> statement-breakpoint
CREATE INDEX "snapshots_event_srs_idx" ON "snapshots" USING btree ("slug_date","seat_type","section","row","seat","date","id","camera","magicshot","favorite","shared_count","share_sources");--> statement-breakpoint
CREATE INDEX "snapshots_event_row_idx" ON "snapshots" USING btree ("slug_date","row");--> statement-breakpoint
CREATE INDEX "snapshots_event_seat_idx" ON "snapshots" USING btree ("slug_date","seat");--> statement-breakpoint
CREATE INDEX "snapshots_event_camera_idx" ON "snapshots" USING btree ("slug_date","camera","date","id","magicshot","favorite","shared_count","share_sources");--> statement-breakpoint
CREATE INDEX "snapshots_event_section_camera_idx" ON "snapshots" USING btree ("slug_date","seat_type","section","camera","date","id","magicshot","favorite","shared_count","share_sources");--> statement-breakpoint
CREATE INDEX "snapshots_event_overlay_idx" ON "snapshots" USING btree ("slug_date","overlay");--> statement-breakpoint
CREATE INDEX "snapshots_faces_idx" ON "snapshots" USING btree ("slug_date","group_size","age_min","age_max") WHERE "snapshots"."group_size" is not null;--> statement-breakpoint
CREATE INDEX "snapshots_emotions_idx" ON "snapshots" USING gin ("emotions");--> statement-breakpoint
CREATE INDEX "snapshots_share_sources_idx" ON "snapshots" USING gin ("share_sources");--> statement-breakpoint
CREATE INDEX "snapshots_event_sources_idx" ON "snapshots" USING btree ("slug_date","share_sources","magicshot") WHERE "snapshots"."shared_count" > 0;--> statement-breakpoint
CREATE INDEX "snapshots_user_idx" ON "snapshots" USING btree ("user_id","date");--> statement-breakpoint
CREATE INDEX "snapshots_banned_idx" ON "snapshots" USING btree ("slug_date","date","id") WHERE "snapshots"."hidden" = true;--> statement-breakpoint
CREATE INDEX "notifications_event_idx" ON "notifications" USING btree ("slug_date","type","created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("slug_date","user_id");--> statement-breakpoint
CREATE INDEX "event_users_first_idx" ON "event_users" USING btree ("slug_date","first_date","shared_photos");