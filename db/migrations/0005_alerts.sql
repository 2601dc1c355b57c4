CREATE TABLE `alert_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`alert_id` integer NOT NULL,
	`state` text NOT NULL,
	`at` text NOT NULL,
	`delivered_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_attempt_at` text,
	`last_error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_events_uq` ON `alert_events` (`alert_id`,`state`);--> statement-breakpoint
CREATE INDEX `alert_events_pending_idx` ON `alert_events` (`delivered_at`,`at`);--> statement-breakpoint
CREATE TABLE `cross_reads` (
	`day` text NOT NULL,
	`server_id` integer NOT NULL,
	`outcome` text NOT NULL,
	`paths` text DEFAULT '[]' NOT NULL,
	`detail` text,
	`cross_tool_count` integer,
	`probe_tool_count` integer,
	`read_at` text NOT NULL,
	PRIMARY KEY(`day`, `server_id`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
DROP INDEX `alerts_day_kind_uq`;--> statement-breakpoint
ALTER TABLE `alerts` ADD `resolved_message` text;--> statement-breakpoint
CREATE INDEX `alerts_day_kind_idx` ON `alerts` (`day`,`kind`);--> statement-breakpoint
CREATE INDEX `alerts_open_idx` ON `alerts` (`resolved_at`,`kind`);