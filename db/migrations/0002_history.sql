CREATE TABLE `reprobe_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`requested_at` text NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reprobe_server_idx` ON `reprobe_requests` (`server_id`,`requested_at`);--> statement-breakpoint
CREATE INDEX `reprobe_at_idx` ON `reprobe_requests` (`requested_at`);--> statement-breakpoint
CREATE TABLE `server_days` (
	`server_id` integer NOT NULL,
	`day` text NOT NULL,
	`state` text NOT NULL,
	`probes` integer DEFAULT 0 NOT NULL,
	`last_run_id` integer NOT NULL,
	`handshake_ms_sum` integer DEFAULT 0 NOT NULL,
	`handshake_ms_count` integer DEFAULT 0 NOT NULL,
	`handshake_ms_max` integer,
	`tools_list_ms_sum` integer DEFAULT 0 NOT NULL,
	`tools_list_ms_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`server_id`, `day`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `runs` ADD `handshake_ms` integer;--> statement-breakpoint
ALTER TABLE `runs` ADD `tools_list_ms` integer;