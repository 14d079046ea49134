package apikey

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/go-drf/drf/contrib/auth"
	"github.com/go-drf/drf/framework/management"
)

// errNoKeys reports a HasAPIKey registered without its store.
var errNoKeys = errors.New("apikey.HasAPIKey needs Keys with a DB")

// CreateCommand returns "create_api_key NAME": it creates a key named
// NAME and prints the full key, "PREFIX.SECRET", on stdout: the only time
// it is shown. hashers gives the PASSWORD_HASHERS the key is hashed with,
// the service's (nil: Django's defaults).
func CreateCommand(hashers func(env *management.Env) (auth.Hashers, error)) management.Command {
	return management.Command{
		Name:  "create_api_key",
		Usage: "NAME",
		Help: "Creates an API key (djangorestframework-api-key) and prints the full key (\"PREFIX.SECRET\") on stdout; " +
			"it is shown only this once.",
		Run: func(ctx context.Context, env *management.Env, args []string) error {
			name, err := oneArg(args, "NAME")
			if err != nil {
				return err
			}
			db, err := env.DB()
			if err != nil {
				return &management.CommandError{Msg: err.Error()}
			}
			var hs auth.Hashers
			if hashers != nil {
				if hs, err = hashers(env); err != nil {
					return &management.CommandError{Msg: err.Error()}
				}
			}
			_, key, err := (&Keys{DB: db, Hashers: hs}).Create(ctx, name, nil)
			if errors.Is(err, ErrInvalidName) {
				return &management.CommandError{Msg: fmt.Sprintf("The name must be 1 to %d characters, got %q", maxNameLength, name)}
			}
			if err != nil {
				return err
			}
			fmt.Fprintln(env.Stdout, key)
			return nil
		},
	}
}

// RevokeCommand returns "revoke_api_key PREFIX": it revokes the key with
// that prefix (or the full key), for good, and prints `Revoked API key
// "NAME" (PREFIX)`; an unknown prefix is an error (a non-zero exit).
func RevokeCommand() management.Command {
	return management.Command{
		Name:  "revoke_api_key",
		Usage: "PREFIX",
		Help:  "Revokes the API key with the given prefix (the part of the key before the dot; a full key is accepted too). Revocation cannot be undone.",
		Run: func(ctx context.Context, env *management.Env, args []string) error {
			prefix, err := oneArg(args, "PREFIX")
			if err != nil {
				return err
			}
			db, err := env.DB()
			if err != nil {
				return &management.CommandError{Msg: err.Error()}
			}
			k, err := (&Keys{DB: db}).Revoke(ctx, prefix)
			if errors.Is(err, ErrNotFound) {
				prefix, _, _ = strings.Cut(prefix, ".")
				return &management.CommandError{Msg: fmt.Sprintf("No API key with prefix \"%s\"", prefix)}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, "Revoked API key \"%s\" (%s)\n", k.Name, k.Prefix)
			return nil
		},
	}
}

// oneArg returns a command's one positional argument.
func oneArg(args []string, what string) (string, error) {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		return "", flag.ErrHelp
	}
	if len(args) != 1 {
		return "", &management.UsageError{Msg: "expected exactly one " + what}
	}
	return args[0], nil
}
