DROP INDEX `subscribers_address_idx`;--> statement-breakpoint
ALTER TABLE `subscribers` ADD `address_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `subscribers_address_hash_idx` ON `subscribers` (`address_hash`);