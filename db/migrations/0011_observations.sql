CREATE TABLE `observations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`server_id` integer NOT NULL,
	`code` text NOT NULL,
	`tool` text,
	`pointer` text NOT NULL,
	`offset` integer,
	`count` integer,
	`decoded` text,
	`facts` text,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `observations_run_idx` ON `observations` (`run_id`);--> statement-breakpoint
CREATE TABLE `server_observations` (
	`server_id` integer NOT NULL,
	`code` text NOT NULL,
	`count` integer NOT NULL,
	`run_id` integer NOT NULL,
	PRIMARY KEY(`server_id`, `code`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `server_observations_code_idx` ON `server_observations` (`code`,`server_id`);--> statement-breakpoint
ALTER TABLE `tool_changes` ADD `server_version_before` text;--> statement-breakpoint
ALTER TABLE `tool_changes` ADD `server_version_after` text;--> statement-breakpoint
ALTER TABLE `tool_snapshots` ADD `server_version` text;