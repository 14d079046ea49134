// Package reliability holds the project's cross-cutting tests of the
// sample service under load, faults and hostile clients: concurrent writes
// over SQLite WAL, SIGKILL in the middle of a write load, graceful shutdown
// on SIGTERM, request size and time limits, and credential handling. It
// has no code of its own; docs/reliability.md says what each test shows.
package reliability
