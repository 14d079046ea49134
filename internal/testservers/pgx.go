package testservers

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// execPostgres runs statement on a new connection to url.
func execPostgres(ctx context.Context, url, statement string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, statement)
	return err
}
