CREATE TABLE `region_states` (
	`id` text PRIMARY KEY NOT NULL,
	`up` integer NOT NULL,
	`last_answer_at` text,
	`host_share` real,
	`hosts_tried` integer DEFAULT 0 NOT NULL,
	`down` text,
	`down_since` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `alerts` ADD `subject` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `region` text DEFAULT 'local' NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `role` text DEFAULT 'primary' NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `verdict_run_id` integer;--> statement-breakpoint
ALTER TABLE `runs` ADD `quorum` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `discovery` text;--> statement-breakpoint
CREATE INDEX `runs_verdict_idx` ON `runs` (`verdict_run_id`);