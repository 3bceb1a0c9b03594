from dicehall.web.server import main

if __name__ == "__main__":  # bot worker processes import the main module again: it must not start a server
    main()
