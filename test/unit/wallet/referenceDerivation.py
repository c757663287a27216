# Computes test/unit/wallet/seedVectors.json with an implementation independent of the one the wallet uses
# (@scure/bip39 + @scure/bip32): python-mnemonic (BIP39) and bip32 (BIP32 over coincurve), from PyPI:
#   python3 -m venv /tmp/v && /tmp/v/bin/pip install mnemonic==0.21 bip32==5.0.0
#   /tmp/v/bin/python test/unit/wallet/referenceDerivation.py > /tmp/out.json   (the "vectors" member)
# Paths as the reference wallet derives keys: FactomProject/go-bip44 NewKeyFromMnemonic(mnemonic, coin,
# bip32.FirstHardenedChild, 0, index), coin 0x80000083 (FA) / 0x80000084 (EC).
import json
from mnemonic import Mnemonic
from bip32 import BIP32
ms = [
 "yellow yellow yellow yellow yellow yellow yellow yellow yellow yellow yellow yellow",
 "legal winner thank year wave sausage worth useful legal winner thank yellow",
 "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
 "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong",
]
out=[]
for m in ms:
    seed = Mnemonic("english").to_seed(m, "")
    root = BIP32.from_seed(seed)
    for kind, coin in (("FA",131),("EC",132)):
        for i in range(3):
            path = f"m/44'/{coin}'/0'/0/{i}"
            out.append({"mnemonic": m, "kind": kind, "index": i, "path": path, "privateKeyHex": root.get_privkey_from_path(path).hex()})
print(json.dumps(out, indent=1))
