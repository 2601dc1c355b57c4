ALTER TABLE `check_results` ADD `hint_code` text;--> statement-breakpoint
ALTER TABLE `check_results` ADD `hint_facts` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `certificate` text;--> statement-breakpoint
ALTER TABLE `servers` ADD `remotes` text;