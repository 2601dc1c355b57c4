CREATE TABLE `host_gate` (
	`host` text PRIMARY KEY NOT NULL,
	`last_end_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `host_leases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`host` text NOT NULL,
	`holder` text NOT NULL,
	`expires_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `host_leases_host_idx` ON `host_leases` (`host`);--> statement-breakpoint
CREATE TABLE `host_waits` (
	`host` text NOT NULL,
	`holder` text NOT NULL,
	`since_ms` integer NOT NULL,
	`expires_ms` integer NOT NULL,
	PRIMARY KEY(`host`, `holder`)
);
--> statement-breakpoint
ALTER TABLE `rounds` ADD `hosts_tried` integer;--> statement-breakpoint
ALTER TABLE `rounds` ADD `hosts_network_failed` integer;--> statement-breakpoint
ALTER TABLE `rounds` ADD `network_paused` integer;