from dicehall.web.server import main

main()
