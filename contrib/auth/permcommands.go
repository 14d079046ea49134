package auth

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/go-drf/drf/framework/management"
)

// GrantPermissionCommand returns "grant_permission USERNAME
// APP_LABEL.CODENAME": it adds the permission to the user's own
// (auth_user_user_permissions) and prints "Granted PERM to USERNAME". An
// unknown user or permission is a CommandError (a non-zero exit), in the
// wording of the DRF reference's command.
func GrantPermissionCommand() management.Command {
	return permissionCommand("grant_permission",
		"Adds APP_LABEL.CODENAME to the user's own permissions (auth_user_user_permissions).",
		"Granted %s to %s", (*Users).GrantPermission)
}

// RevokePermissionCommand returns "revoke_permission USERNAME
// APP_LABEL.CODENAME": it removes the permission from the user's own and
// prints "Revoked PERM from USERNAME"; errors as GrantPermissionCommand's.
func RevokePermissionCommand() management.Command {
	return permissionCommand("revoke_permission",
		"Removes APP_LABEL.CODENAME from the user's own permissions (auth_user_user_permissions).",
		"Revoked %s from %s", (*Users).RevokePermission)
}

func permissionCommand(name, help, done string, apply func(*Users, context.Context, *User, string) error) management.Command {
	return management.Command{
		Name:  name,
		Usage: "USERNAME APP_LABEL.CODENAME",
		Help:  help,
		Run: func(ctx context.Context, env *management.Env, args []string) error {
			if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
				return flag.ErrHelp
			}
			if len(args) != 2 {
				return &management.UsageError{Msg: "expected USERNAME and APP_LABEL.CODENAME"}
			}
			username, perm := args[0], args[1]
			db, err := env.DB()
			if err != nil {
				return &management.CommandError{Msg: err.Error()}
			}
			users := &Users{DB: db}
			u, err := users.GetByUsername(ctx, username)
			if errors.Is(err, ErrNotFound) {
				return &management.CommandError{Msg: fmt.Sprintf("User %s does not exist", username)}
			}
			if err != nil {
				return err
			}
			if app, codename, ok := strings.Cut(perm, "."); !ok || app == "" || codename == "" {
				return &management.CommandError{Msg: fmt.Sprintf("Permission must be APP_LABEL.CODENAME, got \"%s\"", perm)}
			}
			err = apply(users, ctx, u, perm)
			if errors.Is(err, ErrUnknownPermission) {
				return &management.CommandError{Msg: fmt.Sprintf("Permission %s does not exist", perm)}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stdout, done+"\n", perm, username)
			return nil
		},
	}
}
