CREATE TABLE "queue_joins" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "queue_joins_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"slug_date" text NOT NULL,
	"seat_type" text NOT NULL,
	"section" text NOT NULL,
	"row" text NOT NULL,
	"seat" text NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seat_counts" (
	"slug_date" text NOT NULL,
	"seat_type" text NOT NULL,
	"section" text NOT NULL,
	"row" text NOT NULL,
	"seat" text NOT NULL,
	"joins" integer DEFAULT 0 NOT NULL,
	"photos" integer DEFAULT 0 NOT NULL,
	"shares" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "seat_counts_slug_date_seat_type_section_row_seat_pk" PRIMARY KEY("slug_date","seat_type","section","row","seat")
);
--> statement-breakpoint
CREATE TABLE "section_counts" (
	"slug_date" text NOT NULL,
	"seat_type" text NOT NULL,
	"section" text NOT NULL,
	"joins" integer DEFAULT 0 NOT NULL,
	"photos" integer DEFAULT 0 NOT NULL,
	"shares" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "section_counts_slug_date_seat_type_section_pk" PRIMARY KEY("slug_date","seat_type","section")
);
--> statement-breakpoint
ALTER TABLE "queue_joins" ADD CONSTRAINT "queue_joins_slug_date_events_slug_date_fk" FOREIGN KEY ("slug_date") REFERENCES "public"."events"("slug_date") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "queue_joins_event_idx" ON "queue_joins" USING btree ("slug_date");