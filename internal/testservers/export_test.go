package testservers

// Ping lets the tests check a Redis address.
var Ping = pingRedis
