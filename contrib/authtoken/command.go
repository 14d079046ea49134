package authtoken

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/management"
)

// CreateTokenCommand returns DRF's "drf_create_token USERNAME [-r|--reset]":
// it prints "Generated token KEY for user USERNAME", creating the user's
// token when missing, or replacing it with -r. An unknown user is the
// CommandError "Cannot create the Token: user USERNAME does not exist".
// Flags may come before or after the username; "--" ends them.
func CreateTokenCommand() management.Command {
	return management.Command{
		Name:  "drf_create_token",
		Usage: "[-r|--reset] USERNAME",
		Help: "Create DRF Token for a given user.\n\n" +
			"  -r, --reset  Reset existing User token and create a new one",
		Run: runCreateToken,
	}
}

func runCreateToken(ctx context.Context, env *management.Env, args []string) error {
	var username []string
	reset, flags := false, true
	for _, a := range args {
		switch {
		case flags && a == "--":
			flags = false
		case flags && (a == "-r" || a == "--reset"):
			reset = true
		case flags && (a == "-h" || a == "--help"):
			return flag.ErrHelp
		case flags && strings.HasPrefix(a, "-") && a != "-":
			return &management.UsageError{Msg: "unknown flag " + a}
		default:
			username = append(username, a)
		}
	}
	if len(username) != 1 {
		return &management.UsageError{Msg: "expected exactly one USERNAME"}
	}
	db, err := env.DB()
	if err != nil {
		return &management.CommandError{Msg: err.Error()}
	}
	u, err := (&auth.Users{DB: db}).GetByUsername(ctx, username[0])
	if errors.Is(err, auth.ErrNotFound) {
		return &management.CommandError{Msg: fmt.Sprintf("Cannot create the Token: user %s does not exist", username[0])}
	}
	if err != nil {
		return err
	}
	tokens := &Tokens{DB: db}
	var tok *Token
	if reset {
		tok, err = tokens.Regenerate(ctx, u.ID)
	} else {
		tok, _, err = tokens.GetOrCreate(ctx, u.ID)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Generated token %s for user %s\n", tok.Key, username[0])
	return nil
}
