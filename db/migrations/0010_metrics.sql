CREATE TABLE `event_counters` (
	`name` text NOT NULL,
	`label` text NOT NULL,
	`value` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`name`, `label`)
);
--> statement-breakpoint
CREATE INDEX `servers_states_idx` ON `servers` (`left_registry_at`,`overall`,`state_handshake`,`state_protocol_version`,`state_tools_list`,`state_error_taxonomy`,`state_auth_metadata`);