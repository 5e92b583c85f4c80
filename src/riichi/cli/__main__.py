from riichi.cli import main

main()
