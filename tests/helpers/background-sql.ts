/**
 * Statements of the server's own timers, not of a request: the scheduler's deadline poll, the
 * campaign queue's scan and the tenant service's file watch run on their own clocks and may land inside a window where a test
 * counts a request's statements. Counting tests drop them (`isBackgroundSql`).
 */
const BACKGROUND_SQL = [
  /from [`"]deadlines[`"] where [`"]due_at[`"] <=/,
  /from [`"]campaigns[`"] where [`"]proccessed[`"] = /,
  // The tenant service's watch of the SQLite file (docs/tenancy.md).
  /^PRAGMA data_version$/,
];

export function isBackgroundSql(sql: string): boolean {
  return BACKGROUND_SQL.some((re) => re.test(sql));
}
