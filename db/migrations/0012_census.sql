CREATE TABLE `census_days` (
	`day` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`as_of` text NOT NULL,
	`written_at` text NOT NULL,
	`round_id` integer,
	`registry` integer NOT NULL,
	`probed` integer NOT NULL,
	`uncertain` integer DEFAULT 0 NOT NULL,
	`needs_configuration` integer NOT NULL,
	`revisions` text NOT NULL,
	`eras` text NOT NULL,
	`transports` text,
	`auth` text NOT NULL,
	`refusals` text,
	`overall` text NOT NULL,
	`not_checked_causes` text NOT NULL,
	`observations` text
);
