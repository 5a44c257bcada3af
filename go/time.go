package omnimessage

import "time"

// NowISO is the current time as Date.prototype.toISOString() writes it
// (`2026-07-18T03:10:22.531Z`): the default `timestamp` of the builders.
func NowISO() string {
	return ISOFromTime(time.Now())
}

// ISOFromTime is t in toISOString form (UTC, millisecond precision).
func ISOFromTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
