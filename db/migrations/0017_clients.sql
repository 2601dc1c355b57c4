ALTER TABLE `servers` ADD `clients_initialize_first` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `clients_discover_first` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `clients` text;--> statement-breakpoint
CREATE INDEX `servers_clients_if_idx` ON `servers` (`clients_initialize_first`,`name`);