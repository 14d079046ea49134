package translation

import (
	"fmt"
	"strconv"
	"strings"
)

// compilePlural compiles a catalog's Plural-Forms expression (the C
// expression after "plural=", as gettext reads it) into the function
// that picks a message's form for n.
func compilePlural(expr string) (func(n int) int, error) {
	p := &pluralParser{src: expr}
	p.next()
	f, err := p.ternary()
	if err == nil && p.tok != "" {
		err = fmt.Errorf("unexpected %q", p.tok)
	}
	if err != nil {
		return nil, fmt.Errorf("plural forms %q: %w", expr, err)
	}
	return f, nil
}

type pluralParser struct {
	src string
	tok string
}

// next reads the next token: n, a number, an operator or a parenthesis.
func (p *pluralParser) next() {
	p.src = strings.TrimLeft(p.src, " \t\n")
	if p.src == "" {
		p.tok = ""
		return
	}
	for _, op := range []string{"||", "&&", "==", "!=", "<=", ">="} {
		if strings.HasPrefix(p.src, op) {
			p.tok, p.src = op, p.src[2:]
			return
		}
	}
	i := 1
	if c := p.src[0]; c >= '0' && c <= '9' {
		for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
			i++
		}
	}
	p.tok, p.src = p.src[:i], p.src[i:]
}

// binary operators by precedence, loosest first.
var pluralLevels = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *pluralParser) ternary() (func(int) int, error) {
	cond, err := p.binary(0)
	if err != nil || p.tok != "?" {
		return cond, err
	}
	p.next()
	yes, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if p.tok != ":" {
		return nil, fmt.Errorf("expected ':', got %q", p.tok)
	}
	p.next()
	no, err := p.ternary()
	if err != nil {
		return nil, err
	}
	return func(n int) int {
		if cond(n) != 0 {
			return yes(n)
		}
		return no(n)
	}, nil
}

func (p *pluralParser) binary(level int) (func(int) int, error) {
	if level == len(pluralLevels) {
		return p.unary()
	}
	left, err := p.binary(level + 1)
	for err == nil {
		op := p.tok
		found := false
		for _, o := range pluralLevels[level] {
			found = found || o == op
		}
		if !found {
			break
		}
		p.next()
		var right func(int) int
		if right, err = p.binary(level + 1); err == nil {
			left = pluralOp(op, left, right)
		}
	}
	return left, err
}

func pluralOp(op string, l, r func(int) int) func(int) int {
	b := func(c bool) int {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "||":
		return func(n int) int { return b(l(n) != 0 || r(n) != 0) }
	case "&&":
		return func(n int) int { return b(l(n) != 0 && r(n) != 0) }
	case "==":
		return func(n int) int { return b(l(n) == r(n)) }
	case "!=":
		return func(n int) int { return b(l(n) != r(n)) }
	case "<":
		return func(n int) int { return b(l(n) < r(n)) }
	case ">":
		return func(n int) int { return b(l(n) > r(n)) }
	case "<=":
		return func(n int) int { return b(l(n) <= r(n)) }
	case ">=":
		return func(n int) int { return b(l(n) >= r(n)) }
	case "+":
		return func(n int) int { return l(n) + r(n) }
	case "-":
		return func(n int) int { return l(n) - r(n) }
	case "*":
		return func(n int) int { return l(n) * r(n) }
	case "/":
		return func(n int) int {
			if d := r(n); d != 0 {
				return l(n) / d
			}
			return 0
		}
	}
	return func(n int) int {
		if d := r(n); d != 0 {
			return l(n) % d
		}
		return 0
	}
}

func (p *pluralParser) unary() (func(int) int, error) {
	switch tok := p.tok; {
	case tok == "!":
		p.next()
		f, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(n int) int {
			if f(n) == 0 {
				return 1
			}
			return 0
		}, nil
	case tok == "(":
		p.next()
		f, err := p.ternary()
		if err != nil {
			return nil, err
		}
		if p.tok != ")" {
			return nil, fmt.Errorf("expected ')', got %q", p.tok)
		}
		p.next()
		return f, nil
	case tok == "n":
		p.next()
		return func(n int) int { return n }, nil
	case tok != "" && tok[0] >= '0' && tok[0] <= '9':
		v, err := strconv.Atoi(tok)
		if err != nil {
			return nil, err
		}
		p.next()
		return func(int) int { return v }, nil
	}
	return nil, fmt.Errorf("unexpected %q", p.tok)
}
