"""Where the data comes from: the only code that talks to boto3, and the /tmp cache in front of it."""
