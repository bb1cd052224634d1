CREATE TABLE "notification_unread_counts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"unread" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "notification_unread_counts_unread_check" CHECK ("notification_unread_counts"."unread" >= 0)
);
--> statement-breakpoint
ALTER TABLE "notification_unread_counts" ADD CONSTRAINT "notification_unread_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;