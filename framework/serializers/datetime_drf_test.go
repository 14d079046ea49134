package serializers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/go-drf/drf/framework/models"
	"github.com/go-drf/drf/framework/serializers"
)

// The fields of testdata/drf_datetime.py, one Go type each.
type (
	dtDefault struct {
		F time.Time `json:"f"`
	}
	dtParis struct {
		F time.Time `json:"f" drf:"default_timezone=Europe/Paris"`
	}
	dtFormats struct {
		F time.Time `json:"f" drf:"format=%d/%m/%Y %H:%M,input_formats=%d/%m/%Y %H:%M|iso-8601"`
	}
	dtStrptime struct {
		F time.Time `json:"f" drf:"format=%Y-%m-%d %I:%M:%S.%f %p %z %B %b %y,input_formats=%Y-%m-%dT%H:%M:%S.%f%z|%b %d %Y %I:%M%p|%y%m%d"`
	}
	dtParisFormats struct {
		F time.Time `json:"f" drf:"default_timezone=Europe/Paris,format=%Y-%m-%d %H:%M:%S %z,input_formats=%Y-%m-%d %H:%M"`
	}
	dtISOOutput struct {
		F time.Time `json:"f" drf:"format=iso-8601,input_formats=ISO-8601"`
	}
)

// datetimeDiffer are the answers of drf_datetime.py the framework gives
// otherwise, each with why; a listed answer that matches fails the test.
var datetimeDiffer = map[string]string{
	// DRF 3.18's zoneinfo keeps a wall time of a DST gap as it was read
	// ("02:30+01:00", a time that never was); a time.Time holds the
	// instant, which the zone's clock reads as 03:30+02:00.
	`drf318: paris "2021-03-28T02:30:00"`:      "a time.Time holds no wall time of a DST gap",
	`drf318: paris "2021-03-28 02:30"`:         "a time.Time holds no wall time of a DST gap",
	`drf318: paris_formats "2021-03-28 02:30"`: "a time.Time holds no wall time of a DST gap",
}

// TestDateTimeOptionsAsDRF: a time.Time's drf tag options are DRF's
// DateTimeField's, as DRF 3.14 and 3.18 answer drf_datetime.py (DRF's
// TestCustomInputFormatDateTimeField, TestCustomOutputFormatDateTimeField,
// TestDefaultTZDateTimeField and the daylight-saving tests, and more
// inputs): format= writes a strftime pattern (or iso-8601),
// input_formats= reads the first of its patterns that matches, as
// Python's strptime (white space, case, 1-digit fields, %y, %p, %z), with
// DRF's message naming them ("DD/MM/YYYY hh:mm"), and default_timezone=
// makes a naive time aware in that zone and writes times in it; at the
// 3.14 level (pytz) a wall time of a DST gap or overlap is refused:
// "Invalid datetime for the timezone \"Europe/Paris\".", at 3.18
// (zoneinfo) it is read at the offset before the change.
func TestDateTimeOptionsAsDRF(t *testing.T) {
	fields := map[string]optionCase{
		"default":       newOptionCase[dtDefault](t),
		"paris":         newOptionCase[dtParis](t),
		"formats":       newOptionCase[dtFormats](t),
		"strptime":      newOptionCase[dtStrptime](t),
		"paris_formats": newOptionCase[dtParisFormats](t),
		"iso_output":    newOptionCase[dtISOOutput](t),
	}
	for name, fc := range fields {
		// The stored times are UTC, as drf_datetime.py's.
		output := fc.output
		fc.output = func(stored string, c *serializers.Context) string { return output(stored+"Z", c) }
		fields[name] = fc
	}
	checkOptionAnswers(t, "drf_datetime", fields, datetimeDiffer, nil)
}

// TestDateTimeOptionsAtSetup: a format DRF reads but the framework does
// not, an unknown time zone, a format option on a field that is no date,
// time or time.Time, and a default_timezone on a date or a time are
// setup errors naming the field and the option.
func TestDateTimeOptionsAtSetup(t *testing.T) {
	type badVerb struct {
		F time.Time `json:"f" drf:"format=%Y %j"`
	}
	type badZone struct {
		F time.Time `json:"f" drf:"default_timezone=Mars/Olympus"`
	}
	type notTime struct {
		F string `json:"f" drf:"input_formats=%Y"`
	}
	type dateZone struct {
		F models.Date `json:"f" drf:"default_timezone=UTC"`
	}
	type badDate struct {
		F models.TimeOfDay `json:"f" drf:"input_formats=%H|%Q"`
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{second(serializers.New[badVerb]()), `badVerb.F: bad drf tag option "format=%Y %j": format "%Y %j": %j is not one of`},
		{second(serializers.New[badZone]()), `badZone.F: bad drf tag option "default_timezone=Mars/Olympus": default_timezone "Mars/Olympus"`},
		{second(serializers.New[notTime]()), `notTime.F: bad drf tag option "input_formats=%Y": input_formats needs a time.Time field`},
		{second(serializers.New[dateZone]()), `dateZone.F: bad drf tag option "default_timezone=UTC": default_timezone needs a time.Time field`},
		{second(serializers.New[badDate]()), `badDate.F: bad drf tag option "input_formats=%H|%Q": format "%Q": %Q is not one of`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%v, want %s", tc.err, tc.want)
		}
	}
}
