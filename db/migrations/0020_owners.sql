CREATE TABLE `claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`claim_hash` text NOT NULL,
	`manage_hash` text,
	`proof` text NOT NULL,
	`origin` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`lang` text DEFAULT 'en' NOT NULL,
	`created_at` text NOT NULL,
	`verified_at` text,
	`lapsed_at` text,
	`last_checked_at` text,
	`next_check_at` text,
	`misses` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `claims_claim_hash_idx` ON `claims` (`claim_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `claims_manage_hash_idx` ON `claims` (`manage_hash`);--> statement-breakpoint
CREATE INDEX `claims_server_idx` ON `claims` (`server_id`,`state`,`verified_at`);--> statement-breakpoint
CREATE INDEX `claims_recheck_idx` ON `claims` (`state`,`next_check_at`);--> statement-breakpoint
CREATE TABLE `owner_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `owner_attempts_idx` ON `owner_attempts` (`scope`,`key`,`at`);--> statement-breakpoint
CREATE TABLE `owner_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`claim_id` integer NOT NULL,
	`server_id` integer NOT NULL,
	`round_id` integer,
	`at` text NOT NULL,
	`outcome` text NOT NULL,
	`tools` integer,
	`results` text NOT NULL,
	`exchanges` text,
	FOREIGN KEY (`claim_id`) REFERENCES `claims`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `owner_runs_claim_idx` ON `owner_runs` (`claim_id`,`at`);--> statement-breakpoint
CREATE INDEX `owner_runs_server_idx` ON `owner_runs` (`server_id`,`at`);--> statement-breakpoint
CREATE TABLE `owner_secrets` (
	`claim_id` integer NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`sealed` text NOT NULL,
	`set_at` text NOT NULL,
	`expires_at` text,
	`expiry_told_at` text,
	PRIMARY KEY(`claim_id`, `kind`, `name`),
	FOREIGN KEY (`claim_id`) REFERENCES `claims`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `claim_id` integer REFERENCES claims(id);