#!/usr/bin/python3
"""Django's command-line utility for the reference (migrate, seed, drf_create_token, ...).

On DRF 3.14 as it is; on DRF 3.18 with PYTHONPATH=drf318 (./start --drf 3.18 sets it)."""
import os
import sys

if __name__ == '__main__':
    os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings')
    from django.core.management import execute_from_command_line
    execute_from_command_line(sys.argv)
