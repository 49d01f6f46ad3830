"""Turn files, their canonical form and signatures, armour for mail bodies, and identities."""
