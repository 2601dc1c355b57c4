CREATE TABLE `host_gate_holders` (
	`holder` text PRIMARY KEY NOT NULL,
	`shared` integer NOT NULL,
	`expires_ms` integer NOT NULL
);
