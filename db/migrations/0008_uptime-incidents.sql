CREATE TABLE `incidents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`started_at` text NOT NULL,
	`ended_at` text,
	`check` text NOT NULL,
	`reason` text NOT NULL,
	`opened_run_id` integer NOT NULL,
	`closed_run_id` integer,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `incidents_server_idx` ON `incidents` (`server_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `incidents_started_idx` ON `incidents` (`started_at`);--> statement-breakpoint
CREATE INDEX `incidents_open_idx` ON `incidents` (`ended_at`,`server_id`);--> statement-breakpoint
ALTER TABLE `runs` ADD `uptime` text;--> statement-breakpoint
ALTER TABLE `server_days` ADD `uptime_reached` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `server_days` ADD `uptime_up` integer DEFAULT 0 NOT NULL;