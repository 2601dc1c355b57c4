CREATE TABLE `event_counters` (
	`name` text NOT NULL,
	`label` text NOT NULL,
	`value` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`name`, `label`)
);
