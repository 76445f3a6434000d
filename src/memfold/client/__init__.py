"""The client side of a memfold server: the HTTP API, files in and out, and `RemoteMemory`."""
