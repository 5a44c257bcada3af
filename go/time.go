package omnimessage

import "time"

// nowISO is the current time as Date.prototype.toISOString() writes it
// (`2026-07-18T03:10:22.531Z`): the default `timestamp` of the builders.
func nowISO() string {
	return isoFromTime(time.Now())
}

// isoFromTime is t in toISOString form (UTC, millisecond precision).
func isoFromTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
