// CounterService: the countapi.xyz, counterapi.dev v1 and board routes on HTTPServer.
