package omnimessage

import (
	"math"
	"testing"
)

func TestFloatSpelledLikeECMAScript(t *testing.T) {
	cases := []struct {
		x    float64
		want string
	}{
		{5, "5"}, {math.Copysign(0, -1), "0"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{1e-7, "1e-7"}, {1.5e-7, "1.5e-7"}, {0.000001, "0.000001"}, {123.456, "123.456"},
		{5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"}, {1e22, "1e+22"},
		{-1.25, "-1.25"}, {9007199254740993.0, "9007199254740992"}, {0.30000000000000004, "0.30000000000000004"},
		{1.5, "1.5"}, {100, "100"}, {-1e-7, "-1e-7"}, {123e-20, "1.23e-18"},
	}
	for _, c := range cases {
		if got := string(AppendFloat(nil, c.x)); got != c.want {
			t.Errorf("AppendFloat(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

func TestParseNumberOverflowIsInfinite(t *testing.T) {
	if !math.IsInf(parseNumber([]byte("1e400")), 1) || !math.IsInf(parseNumber([]byte("-1e400")), -1) {
		t.Fatal("1e400 should parse as infinity")
	}
	if parseNumber([]byte("1e-400")) != 0 {
		t.Fatal("1e-400 underflows to 0")
	}
}
