CREATE TABLE `host_pauses` (
	`host` text PRIMARY KEY NOT NULL,
	`until` text NOT NULL,
	`cause` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `robots_cache` ADD `crawl_delay_seconds` real;