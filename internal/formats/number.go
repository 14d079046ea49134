package formats

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Number is one language's number format: Django's get_format of
// DECIMAL_SEPARATOR, THOUSAND_SEPARATOR and NUMBER_GROUPING for it, with
// the project's USE_THOUSAND_SEPARATOR. A DecimalField of localize=True
// reads and writes its numbers in the format of its request's language.
type Number struct {
	// Decimal is DECIMAL_SEPARATOR.
	Decimal string
	// Thousand is THOUSAND_SEPARATOR and ThousandNFKD its NFKD form,
	// which input may carry instead ("\u00a0" and " ").
	Thousand, ThousandNFKD string
	// Grouping are NUMBER_GROUPING's intervals as numberformat.format
	// reads them ([3, 0] for 3); empty groups no digits.
	Grouping []int
	// UseThousandSeparator is USE_THOUSAND_SEPARATOR: outputs group
	// their digits, and inputs may.
	UseThousandSeparator bool
}

// English is the number format of a request no language is chosen for:
// LANGUAGE_CODE "en-us"'s, without USE_THOUSAND_SEPARATOR, which reads
// and writes numbers as a DecimalField of localize=False does.
var English = &Number{Decimal: ".", Thousand: ",", ThousandNFKD: ",", Grouping: []int{3, 0}}

type numberKey struct{}

// WithNumber returns ctx with n as the number format of the request it
// belongs to (framework/translation's LocaleMiddleware sets it).
func WithNumber(ctx context.Context, n *Number) context.Context {
	return context.WithValue(ctx, numberKey{}, n)
}

// NumberFrom returns ctx's number format, English when it has none.
func NumberFrom(ctx context.Context) *Number {
	if n, ok := ctx.Value(numberKey{}).(*Number); ok {
		return n
	}
	return English
}

// sciDigits is numberformat.format's cutoff: a decimal of more digits
// and exponent than this is written in scientific notation.
const sciDigits = 200

// Localize is Django's localize_input of a decimal, given as '{:f}'
// writes it ("-1234.50"): its decimal separator, and its digits grouped
// under USE_THOUSAND_SEPARATOR ("-1 234,50"); past 200 digits, its
// scientific form ("1,5e+300"), as numberformat.format writes it.
func (n *Number) Localize(text string) string {
	sign, body := "", text
	if strings.HasPrefix(body, "-") {
		sign, body = "-", body[1:]
	}
	whole, frac, _ := strings.Cut(body, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		digits = "0"
	}
	if len(digits)+len(frac) <= sciDigits {
		return sign + n.format(whole, frac)
	}
	// '{:e}' of the Decimal: every digit of its coefficient.
	exp := len(digits) - 1 - len(frac)
	if digits == "0" {
		exp = -len(frac)
	}
	mantissa := n.format(digits[:1], digits[1:])
	if exp < 0 {
		return sign + mantissa + "e" + strconv.Itoa(exp)
	}
	return sign + mantissa + "e+" + strconv.Itoa(exp)
}

// format joins a number's whole and fractional digits as
// numberformat.format does.
func (n *Number) format(whole, frac string) string {
	if n.UseThousandSeparator && len(n.Grouping) > 0 && n.Grouping[0] != 0 {
		whole = n.group(whole)
	}
	if frac == "" {
		return whole
	}
	return whole + n.Decimal + frac
}

// group puts the thousand separator between the groups of whole's
// digits, from the right, by the intervals of Grouping (a 0 repeats the
// interval before it).
func (n *Number) group(whole string) string {
	intervals := n.Grouping
	active, intervals := intervals[0], intervals[1:]
	var groups []string
	end := len(whole)
	for end > active {
		groups = append(groups, whole[end-active:end])
		end -= active
		if len(intervals) > 0 {
			if intervals[0] != 0 {
				active = intervals[0]
			}
			intervals = intervals[1:]
		}
	}
	groups = append(groups, whole[:end])
	var b strings.Builder
	for i := len(groups) - 1; i >= 0; i-- {
		b.WriteString(groups[i])
		if i > 0 {
			b.WriteString(n.Thousand)
		}
	}
	return b.String()
}

// Sanitize is Django's sanitize_separators: s with its decimal
// separator made a point and, under USE_THOUSAND_SEPARATOR, its
// thousand separators removed (but for a lone "." not followed by three
// digits, which is taken for a decimal point).
func (n *Number) Sanitize(s string) string {
	value, decimals, hasDecimals := s, "", false
	if strings.Contains(value, n.Decimal) {
		value, decimals, hasDecimals = strings.Cut(value, n.Decimal)
	}
	if n.UseThousandSeparator {
		last := value[strings.LastIndexByte(value, '.')+1:]
		if !(n.Thousand == "." && strings.Count(value, ".") == 1 && utf8.RuneCountInString(last) != 3) {
			value = strings.ReplaceAll(value, n.Thousand, "")
			value = strings.ReplaceAll(value, n.ThousandNFKD, "")
		}
	}
	if hasDecimals {
		return value + "." + decimals
	}
	return value
}
