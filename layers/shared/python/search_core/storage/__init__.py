"""Where the data comes from: the only code that talks to the AWS SDK (botocore), and the /tmp cache in front of it."""
