# cv2.GaussianBlur 5x5 sigma 1.1 at 640x480 GRAY8, 1 and 2 OpenCV threads, ms per call (5 runs of 2000 calls): /usr/bin/python3 cv2_threads.py
import cv2, numpy as np, time
img = (np.random.rand(480,640)*255).astype(np.uint8)
for nt in (1,2):
    cv2.setNumThreads(nt)
    out = np.empty_like(img)
    best=[]
    for rep in range(5):
        t=time.perf_counter()
        for i in range(2000): cv2.GaussianBlur(img,(5,5),1.1,dst=out,borderType=cv2.BORDER_REFLECT_101)
        best.append((time.perf_counter()-t)/2000*1e3)
    print(nt, ["%.4f"%b for b in best])
print(cv2.__version__)
