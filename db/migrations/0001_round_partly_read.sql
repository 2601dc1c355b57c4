ALTER TABLE `rounds` ADD `partly_read` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `rounds` ADD `slowed_down` integer DEFAULT 0 NOT NULL;