package omnimessage

import (
	"math"
	"strconv"
)

// The typed decoder's numbers: a number token's spelling and range, and the integer, number and
// number-or-string fields built on it (section 6 of the wire contract).

// numberToken reads the number token at the cursor (its spelling checked) and its double.
func (d *De) numberToken(p *Path, expected string) (int, []byte, float64, error) {
	at := d.valueStart()
	if c := d.at(); c != '-' && !isDigit(c) {
		return at, nil, 0, d.WrongType(p, at, expected)
	}
	end, e := numberEnd(d.b, at)
	if e != nil {
		return at, nil, 0, e
	}
	d.i = end
	spelling := d.b[at:end]
	value := parseNumber(spelling)
	if math.IsInf(value, 0) || math.IsNaN(value) {
		return at, nil, 0, d.fail(InvalidNumber, p, at, clip(string(spelling))+" is beyond the IEEE 754 double range")
	}
	return at, spelling, value, nil
}

// Integer reads an integer field within min..max, judged by its parsed double (section 6).
func (d *De) Integer(p *Path, min, max uint64) (uint64, error) {
	at, spelling, value, err := d.numberToken(p, "an integer")
	if err != nil {
		return 0, err
	}
	if value != math.Trunc(value) {
		return 0, d.fail(WrongType, p, at, "expected an integer, got "+clip(string(spelling)))
	}
	if hasFractionOrExponent(spelling) {
		return 0, d.fail(InvalidNumber, p, at,
			"integer written as "+clip(string(spelling))+": integers take no fraction or exponent")
	}
	if value < float64(min) || value > float64(max) {
		return 0, d.fail(InvalidValue, p, at, clip(string(spelling))+" is outside "+
			strconv.FormatUint(min, 10)+".."+strconv.FormatUint(max, 10))
	}
	return uint64(value), nil
}

// Number reads a number field, at least min when hasMin.
func (d *De) Number(p *Path, hasMin bool, min float64) (float64, error) {
	at, spelling, value, err := d.numberToken(p, "a number")
	if err != nil {
		return 0, err
	}
	if hasMin && value < min {
		return 0, d.fail(InvalidValue, p, at, clip(string(spelling))+" is below the minimum")
	}
	return value, nil
}

// NumberOrString reads a number (at least min when hasMin) or a string.
func (d *De) NumberOrString(p *Path, hasMin bool, min float64) (NumberOrString, error) {
	at := d.valueStart()
	switch c := d.at(); {
	case c == '"':
		s, err := d.String(p)
		return NumberOrString{String: s, IsString: true}, err
	case c == '-' || isDigit(c):
		n, err := d.Number(p, hasMin, min)
		return NumberOrString{Number: n}, err
	}
	return NumberOrString{}, d.WrongType(p, at, "a number or a string")
}
