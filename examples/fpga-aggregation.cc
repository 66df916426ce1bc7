// Placeholder: to be written.
int
main(int argc, char** argv)
{
    return 0;
}
