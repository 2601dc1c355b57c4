CREATE TABLE `alerts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`message` text NOT NULL,
	`value` real,
	`baseline` real,
	`created_at` text NOT NULL,
	`resolved_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_day_kind_uq` ON `alerts` (`day`,`kind`);--> statement-breakpoint
CREATE TABLE `check_results` (
	`server_id` integer NOT NULL,
	`check` text NOT NULL,
	`state` text NOT NULL,
	`reason` text NOT NULL,
	`evidence` text DEFAULT '[]' NOT NULL,
	`suite_version` text NOT NULL,
	`run_id` integer NOT NULL,
	`decided_at` text NOT NULL,
	`since` text NOT NULL,
	PRIMARY KEY(`server_id`, `check`),
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `coverage_daily` (
	`day` text PRIMARY KEY NOT NULL,
	`servers_read` integer DEFAULT 0 NOT NULL,
	`servers_attempted` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`requests_ok` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `coverage_servers` (
	`day` text NOT NULL,
	`server_id` integer NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`day`, `server_id`)
);
--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `opt_outs` (
	`host` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`reason` text NOT NULL,
	`since` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `robots_cache` (
	`host` text PRIMARY KEY NOT NULL,
	`fetched_at` text NOT NULL,
	`status` integer,
	`body` text,
	`disallowed` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `round_lock` (
	`id` integer PRIMARY KEY NOT NULL,
	`round_id` integer NOT NULL,
	`holder` text NOT NULL,
	`acquired_at` text NOT NULL,
	`heartbeat_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rounds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`status` text NOT NULL,
	`trigger` text NOT NULL,
	`due` integer DEFAULT 0 NOT NULL,
	`probed` integer DEFAULT 0 NOT NULL,
	`read` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`gated` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`heartbeat_at` text,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `rounds_started_idx` ON `rounds` (`started_at`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`round_id` integer,
	`started_at` text NOT NULL,
	`finished_at` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`suite_version` text NOT NULL,
	`era` text NOT NULL,
	`protocol_version` text,
	`requests` integer DEFAULT 0 NOT NULL,
	`requests_ok` integer DEFAULT 0 NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	`exchanges` text,
	`keep_evidence` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `runs_server_idx` ON `runs` (`server_id`,`started_at`);--> statement-breakpoint
CREATE INDEX `runs_started_idx` ON `runs` (`started_at`);--> statement-breakpoint
CREATE TABLE `servers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`title` text,
	`description` text,
	`version` text,
	`remote_url` text,
	`transport` text,
	`host` text,
	`registry_status` text DEFAULT 'active' NOT NULL,
	`needs_config` text,
	`first_seen_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`left_registry_at` text,
	`era` text,
	`protocol_version` text,
	`last_probed_at` text,
	`last_success_at` text,
	`state_handshake` text,
	`state_protocol_version` text,
	`state_tools_list` text,
	`state_error_taxonomy` text,
	`state_auth_metadata` text,
	`next_due_at` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`unchanged_streak` integer DEFAULT 0 NOT NULL,
	`schedule_reason` text,
	`tool_count` integer,
	`current_tool_hash` text,
	`registry_updated_at` text,
	`last_run_id` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `servers_name_uq` ON `servers` (`name`);--> statement-breakpoint
CREATE INDEX `servers_due_idx` ON `servers` (`next_due_at`);--> statement-breakpoint
CREATE INDEX `servers_host_idx` ON `servers` (`host`);--> statement-breakpoint
CREATE INDEX `servers_hs_idx` ON `servers` (`state_handshake`,`name`);--> statement-breakpoint
CREATE INDEX `servers_pv_idx` ON `servers` (`state_protocol_version`,`name`);--> statement-breakpoint
CREATE INDEX `servers_tl_idx` ON `servers` (`state_tools_list`,`name`);--> statement-breakpoint
CREATE INDEX `servers_et_idx` ON `servers` (`state_error_taxonomy`,`name`);--> statement-breakpoint
CREATE INDEX `servers_am_idx` ON `servers` (`state_auth_metadata`,`name`);--> statement-breakpoint
CREATE INDEX `servers_left_idx` ON `servers` (`left_registry_at`,`name`);--> statement-breakpoint
CREATE TABLE `tool_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`at` text NOT NULL,
	`tool_name` text NOT NULL,
	`kind` text NOT NULL,
	`path` text NOT NULL,
	`before` text,
	`after` text,
	`from_snapshot_id` integer,
	`to_snapshot_id` integer,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tool_changes_at_idx` ON `tool_changes` (`at`);--> statement-breakpoint
CREATE INDEX `tool_changes_server_idx` ON `tool_changes` (`server_id`,`at`);--> statement-breakpoint
CREATE TABLE `tool_snapshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`hash` text NOT NULL,
	`tools` text NOT NULL,
	`tool_count` integer NOT NULL,
	`first_seen_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tool_snapshots_uq` ON `tool_snapshots` (`server_id`,`hash`);--> statement-breakpoint
CREATE TABLE `transitions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`check` text NOT NULL,
	`from_state` text,
	`to_state` text NOT NULL,
	`reason` text NOT NULL,
	`suite_version` text NOT NULL,
	`run_id` integer NOT NULL,
	`at` text NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `servers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transitions_server_idx` ON `transitions` (`server_id`,`at`);--> statement-breakpoint
CREATE INDEX `transitions_at_idx` ON `transitions` (`at`);