"""What building the wheel needs besides setuptools: which modules compile, and the backend
that asks for the compiler only when it will be used."""
