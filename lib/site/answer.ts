/** A route's whole answer as text (a badge, a sitemap), before it becomes a Response. */
export interface TextAnswer {
  status: number;
  contentType: string;
  body: string;
}
